terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "network/vpc/terraform.tfstate"
    region = "eu-central-1"
  }
}

data "terraform_remote_state" "firewall" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "security/firewall/terraform.tfstate"
    region = "eu-central-1"
  }
}

resource "terraform_data" "this" {
  input = {
    allowed_cidrs = data.terraform_remote_state.firewall.outputs.allowed_cidrs
  }
}

output "subnet_ids" {
  value = "subnet-0a1b2c3d,subnet-4e5f6a7b"
}
