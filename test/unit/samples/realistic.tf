terraform {
  required_version = ">= 1.5.0"

  backend "s3" {
    bucket         = "acme-terraform-state"
    key            = "platform/prod/eu-central-1/eks/terraform.tfstate"
    region         = "eu-central-1"
    dynamodb_table = "terraform-locks"
    encrypt        = true
  }

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

locals {
  service     = "platform"
  environment = "prod"
  region      = "eu-central-1"
  state_key   = "${local.service}/${local.environment}/${local.region}"
  tags = {
    Service     = local.service
    Environment = local.environment
    ManagedBy   = "terraform"
  }
  subnet_count = 3
  cidrs        = [for i in range(local.subnet_count) : cidrsubnet("10.0.0.0/16", 8, i)]
}

variable "cluster_name" {
  type        = string
  default     = "main"
  description = "Name of the EKS cluster"
}

variable "node_count" {
  type    = number
  default = 3
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "${local.state_key}/vpc/terraform.tfstate"
    region = local.region
  }
}

data "terraform_remote_state" "iam" {
  backend = "s3"

  config {
    bucket = "acme-terraform-state"
    key    = format("%s/iam/terraform.tfstate", local.state_key)
    region = "eu-central-1"
  }
}

# data "terraform_remote_state" "old" {
#   backend = "s3"
# }

resource "aws_eks_cluster" "this" {
  name     = "${var.cluster_name}-${local.environment}"
  role_arn = data.terraform_remote_state.iam.outputs.cluster_role_arn
  version  = "1.29"

  vpc_config {
    subnet_ids              = data.terraform_remote_state.vpc.outputs.private_subnet_ids
    endpoint_private_access = true
    endpoint_public_access  = false
  }

  tags = merge(local.tags, { Name = var.cluster_name })
}

resource "aws_eks_node_group" "default" {
  count           = var.node_count > 0 ? 1 : 0
  cluster_name    = aws_eks_cluster.this.name
  node_group_name = "default"
  node_role_arn   = data.terraform_remote_state.iam.outputs.node_role_arn
  subnet_ids      = data.terraform_remote_state.vpc.outputs.private_subnet_ids

  scaling_config {
    desired_size = var.node_count
    max_size     = var.node_count * 2
    min_size     = 1
  }

  labels = { for k, v in local.tags : lower(k) => v }
}

output "cluster_endpoint" {
  value = aws_eks_cluster.this.endpoint
}
