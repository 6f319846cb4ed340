terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "platform/stage/eu-central-1/ec2/rabbitmq/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "platform"
  environment  = "stage"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "network/${local.environment}/${local.region}/vpc/terraform.tfstate"
    region = local.region
  }
}

data "terraform_remote_state" "dns" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "network/${local.environment}/${local.region}/dns/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "broker" {
  input = {
    instance_type = "t3.medium"
    vpc_id        = data.terraform_remote_state.vpc.outputs.vpc_id
    zone_name     = data.terraform_remote_state.dns.outputs.zone_name
  }
}

output "amqp_url" {
  value = "amqps://rabbitmq.${data.terraform_remote_state.dns.outputs.zone_name}:5671"
}
