terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "platform/eks/terraform.tfstate"
    region = "eu-central-1"
  }
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "network/vpc/terraform.tfstate"
    region = "eu-central-1"
  }
}

resource "terraform_data" "this" {
  input = {
    subnet_ids = data.terraform_remote_state.vpc.outputs.subnet_ids
  }
}

output "node_security_group" {
  value = "sg-0123456789abcdef0"
}
