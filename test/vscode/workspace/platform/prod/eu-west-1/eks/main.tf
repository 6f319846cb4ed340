# Level 1: reads the vpc's state.
terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "platform/prod/eu-west-1/eks/terraform.tfstate"
    region = "eu-west-1"
  }
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "network/prod/eu-west-1/vpc/terraform.tfstate"
    region = "eu-west-1"
  }
}

resource "terraform_data" "cluster" {
  input = data.terraform_remote_state.vpc.outputs.vpc_id
}

output "cluster_name" {
  value = "prod-eks"
}
