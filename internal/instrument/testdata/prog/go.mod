module example.com/prog

go 1.22
