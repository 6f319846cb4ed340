terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "network/stage/eu-central-1/dns/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "network"
  environment  = "stage"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "${local.service}/${local.environment}/${local.region}/vpc/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "zone" {
  input = {
    name   = "${local.environment}.acme.internal"
    vpc_id = data.terraform_remote_state.vpc.outputs.vpc_id
  }
}

output "zone_id" {
  value = terraform_data.zone.id
}

output "zone_name" {
  value = "${local.environment}.acme.internal"
}
