terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "platform/stage/eu-central-1/rds/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "platform"
  environment  = "stage"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "network/${local.environment}/${local.region}/vpc/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "database" {
  input = {
    engine = "postgres"
    vpc_id = data.terraform_remote_state.vpc.outputs.vpc_id
  }
}

output "endpoint" {
  value = "postgres.${local.environment}.acme.internal:5432"
}
