# Level 2: reads the eks cluster's state and the vpc's.
terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "app/prod/eu-west-1/api/terraform.tfstate"
    region = "eu-west-1"
  }
}

data "terraform_remote_state" "eks" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "platform/prod/eu-west-1/eks/terraform.tfstate"
    region = "eu-west-1"
  }
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "network/${var.environment}/eu-west-1/vpc/terraform.tfstate"
    region = "eu-west-1"
  }
}

resource "terraform_data" "api" {
  input = {
    cluster = data.terraform_remote_state.eks.outputs.cluster_name
    vpc     = data.terraform_remote_state.vpc.outputs.vpc_id
  }
}

# Given by the environment: prod.tfvars beside this file.
variable "environment" {}
