module example.com/cases

go 1.24
