# Reads the outputs of another stack of this repository, addressed like the folder layout:
# {service}/{environment}/{region}/{module}. Used by several root modules.
variable "service" {
  type = string
}

variable "environment" {
  type = string
}

variable "region" {
  type    = string
  default = "eu-central-1"
}

variable "module" {
  type = string
}

variable "state_bucket" {
  type    = string
  default = "acme-terraform-state"
}

data "terraform_remote_state" "this" {
  backend = "s3"
  config = {
    bucket = var.state_bucket
    key    = "${var.service}/${var.environment}/${var.region}/${var.module}/terraform.tfstate"
    region = "eu-central-1"
  }
}

output "outputs" {
  value = data.terraform_remote_state.this.outputs
}
