# The policy it attaches, kept with the other services' policies: a file it reads outside its folder.
resource "terraform_data" "policy" {
  input = file("${path.module}/../../../../policies/api.json")
}
