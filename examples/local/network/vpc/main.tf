# Level 0: the network. Reads no other state.
terraform {
  backend "local" {}
}

resource "terraform_data" "vpc" {
  input = "10.40.0.0/16"
}

output "vpc_cidr" {
  value = terraform_data.vpc.output
}
