terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "observability/prod/eu-central-1/monitoring/terraform.tfstate"
    region = "eu-central-1"
  }
}

# One monitoring stack watches the clusters of every environment.
locals {
  environments = ["prod", "stage"]
  region       = "eu-central-1"
  state_bucket = "acme-terraform-state"
}

data "terraform_remote_state" "eks" {
  for_each = toset(local.environments)

  backend = "s3"
  config = {
    bucket = local.state_bucket
    key    = "platform/${each.key}/${local.region}/eks/terraform.tfstate"
    region = local.region
  }
}

resource "terraform_data" "dashboards" {
  input = [for env, state in data.terraform_remote_state.eks : "${env}: ${state.outputs.cluster_name}"]
}
