module example.com/mutate

go 1.22
