# Level 1: the cluster, in the network.
terraform {
  backend "local" {}
}

data "terraform_remote_state" "vpc" {
  backend = "local"
  config = {
    path = "../../network/vpc/terraform.tfstate"
  }
}

resource "terraform_data" "cluster" {
  input = "cluster in ${data.terraform_remote_state.vpc.outputs.vpc_cidr}"
}

output "cluster_name" {
  value = "example-cluster"
}

resource "terraform_data" "node_pool" {
  input = {
    cluster = terraform_data.cluster.output
    nodes   = 3
  }
}
