module example.com/sampling

go 1.18
