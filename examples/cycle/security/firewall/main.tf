terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "security/firewall/terraform.tfstate"
    region = "eu-central-1"
  }
}

data "terraform_remote_state" "eks" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "platform/eks/terraform.tfstate"
    region = "eu-central-1"
  }
}

resource "terraform_data" "this" {
  input = {
    node_security_group = data.terraform_remote_state.eks.outputs.node_security_group
  }
}

output "allowed_cidrs" {
  value = "10.0.0.0/8"
}
