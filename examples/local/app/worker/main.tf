# Level 3: the worker calls the API and uses the database.
terraform {
  backend "local" {}
}

data "terraform_remote_state" "api" {
  backend = "local"
  config = {
    path = "../api/terraform.tfstate"
  }
}

data "terraform_remote_state" "postgres" {
  backend = "local"
  config = {
    path = "../../data/postgres/terraform.tfstate"
  }
}

resource "terraform_data" "worker" {
  input = {
    api      = data.terraform_remote_state.api.outputs.url
    database = data.terraform_remote_state.postgres.outputs.endpoint
  }
}
