data "terraform_remote_state" "x" {
  backend = "s3"
  config = {
    key = "missing/quote
  }
}
