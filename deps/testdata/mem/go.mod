module example.com/mem

go 1.24
