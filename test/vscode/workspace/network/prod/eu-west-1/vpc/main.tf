# Level 0: reads no other state.
terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "network/prod/eu-west-1/vpc/terraform.tfstate"
    region = "eu-west-1"
  }
}

resource "terraform_data" "vpc" {
  input = "10.0.0.0/16"
}

output "vpc_id" {
  value = terraform_data.vpc.id
}
