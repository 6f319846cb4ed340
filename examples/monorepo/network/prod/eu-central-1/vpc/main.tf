terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "network/prod/eu-central-1/vpc/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "network"
  environment  = "prod"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

resource "terraform_data" "vpc" {
  input = {
    name = "${local.environment}-${local.region}"
    cidr = "10.0.0.0/16"
  }
}

output "vpc_id" {
  value = terraform_data.vpc.id
}

output "cidr" {
  value = "10.0.0.0/16"
}
