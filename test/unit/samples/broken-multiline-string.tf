locals {
  key = "a string
split over lines"
}
