# Level 1: the database, in the network.
terraform {
  backend "local" {}
}

data "terraform_remote_state" "vpc" {
  backend = "local"
  config = {
    path = "../../network/vpc/terraform.tfstate"
  }
}

resource "terraform_data" "postgres" {
  input = "postgres in ${data.terraform_remote_state.vpc.outputs.vpc_cidr}"
}

output "endpoint" {
  value = "postgres.internal.example:5432"
}
