environment = "prod"
