# Level 2: the API, on the cluster, with the database, under the private zone.
terraform {
  backend "local" {}
}

data "terraform_remote_state" "cluster" {
  backend = "local"
  config = {
    path = "../../platform/cluster/terraform.tfstate"
  }
}

data "terraform_remote_state" "postgres" {
  backend = "local"
  config = {
    path = "../../data/postgres/terraform.tfstate"
  }
}

data "terraform_remote_state" "dns" {
  backend = "local"
  config = {
    path = "../../network/dns/terraform.tfstate"
  }
}

resource "terraform_data" "api" {
  input = {
    cluster  = data.terraform_remote_state.cluster.outputs.cluster_name
    database = data.terraform_remote_state.postgres.outputs.endpoint
    host     = "api.${data.terraform_remote_state.dns.outputs.zone}"
    replicas = 3
  }
}

output "url" {
  value = "https://api.${data.terraform_remote_state.dns.outputs.zone}"
}
