terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "app/stage/eu-central-1/worker/terraform.tfstate"
    region = "eu-central-1"
  }
}

locals {
  service      = "app"
  environment  = "stage"
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "api" {
  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = format("%s/%s/%s/api/terraform.tfstate", local.service, local.environment, local.region)
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

resource "terraform_data" "worker" {
  input = {
    queue_url = data.terraform_remote_state.api.outputs.queue_url
    amqp_url  = data.terraform_remote_state.rabbitmq.outputs.amqp_url
  }
}
