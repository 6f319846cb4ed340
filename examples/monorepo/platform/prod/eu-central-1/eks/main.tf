terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "platform/prod/eu-central-1/eks/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "platform"
  environment  = "prod"
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

data "terraform_remote_state" "dns" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "network/${local.environment}/${local.region}/dns/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "cluster" {
  input = {
    name    = "eks-${local.environment}"
    vpc_id  = data.terraform_remote_state.vpc.outputs.vpc_id
    zone_id = data.terraform_remote_state.dns.outputs.zone_id
  }
}

output "cluster_name" {
  value = "eks-${local.environment}"
}
