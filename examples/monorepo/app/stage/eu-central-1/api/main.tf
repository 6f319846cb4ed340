terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "app/stage/eu-central-1/api/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "app"
  environment  = "stage"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

module "eks" {
  source      = "../../../../modules/stack-outputs"
  service     = "platform"
  environment = local.environment
  module      = "eks"
}

module "rds" {
  source      = "../../../../modules/stack-outputs"
  service     = "platform"
  environment = local.environment
  module      = "rds"
}

data "terraform_remote_state" "dns" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "network/${local.environment}/${local.region}/dns/terraform.tfstate"
    region = local.region
  }
}

data "terraform_remote_state" "rabbitmq" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "platform/${local.environment}/${local.region}/ec2/rabbitmq/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "api" {
  input = {
    cluster_name = module.eks.outputs.cluster_name
    database     = module.rds.outputs.endpoint
    hostname     = "api.${data.terraform_remote_state.dns.outputs.zone_name}"
    amqp_url     = data.terraform_remote_state.rabbitmq.outputs.amqp_url
  }
}

output "queue_url" {
  value = "https://sqs.eu-central-1.amazonaws.com/123456789012/api-${local.environment}"
}
