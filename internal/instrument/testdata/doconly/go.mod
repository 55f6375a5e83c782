module example.com/doconly

go 1.21
