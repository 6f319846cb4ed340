# Level 1: a private zone in the network.
terraform {
  backend "local" {}
}

data "terraform_remote_state" "vpc" {
  backend = "local"
  config = {
    path = "../vpc/terraform.tfstate"
  }
}

resource "terraform_data" "zone" {
  input = "internal.example (${data.terraform_remote_state.vpc.outputs.vpc_cidr})"
}

output "zone" {
  value = "internal.example"
}
