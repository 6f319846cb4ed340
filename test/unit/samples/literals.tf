# Literal values of every shape, for the differential test against hcl2json.
locals {
  plain       = "abc"
  empty       = ""
  escapes     = "tab\there \"quoted\" back\\slash\nnewline"
  unicode     = "\u00e9t\u00e9 😀 ü"
  long_escape = "\U0001F600"
  dollar      = "price: $5, literal $${not.interpolated} and %%{not.directive}"
  percent     = "100% sure, 50%"
  integer     = 42
  negative    = -7
  float       = 3.25
  exponent    = 1.5e3
  big         = 12345678901234
  yes         = true
  no          = false
  nothing     = null
  list        = ["a", 1, true, null, ["nested"]]
  empty_list  = []
  map = {
    key         = "value"
    "quoted"    = 2
    nested      = { deep = [1, 2, { x = "y" }] }
    with-dash   = "dash"
  }
  trailing_commas = [
    "one",
    "two",
  ]
  colon_object = { a: 1, b: "two" }
}

locals {
  heredoc = <<EOT
first line
  indented line
back\slash stays, $${escaped}
EOT

  flush = <<-EOT
    one
      two
    three
  EOT

  flush_blank = <<-EOT
      a

      b
    EOT

  heredoc_empty = <<EOT
EOT
}

terraform {
  backend "s3" {
    bucket  = "acme-state"
    key     = "platform/prod/eu-central-1/vpc/terraform.tfstate"
    region  = "eu-central-1"
    encrypt = true
  }
}

data "terraform_remote_state" "vpc" {
  backend = "s3"
  config = {
    bucket = "acme-state"
    key    = "platform/prod/vpc/terraform.tfstate"
  }
}

data "terraform_remote_state" "vpc" {
  backend = "gcs"
  config {
    bucket = "second"
    prefix = "x/y"
  }
}

module "child" {
  source = "../child"
  names  = ["a", "b"]
}

# data "terraform_remote_state" "commented" {
#   backend = "s3"
# }
