module example.com/outputs

go 1.24
