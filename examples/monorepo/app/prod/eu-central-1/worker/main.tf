terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "app/prod/eu-central-1/worker/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "app"
  environment  = "prod"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "api" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = format("%s/%s/%s/api/terraform.tfstate", local.service, local.environment, local.region)
    region = local.region
  }
}

module "rds" {
  source      = "../../../../modules/stack-outputs"
  service     = "platform"
  environment = local.environment
  module      = "rds"
}

resource "terraform_data" "worker" {
  input = {
    queue_url = data.terraform_remote_state.api.outputs.queue_url
    database  = module.rds.outputs.endpoint
  }
}
