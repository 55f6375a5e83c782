module example.com/vetfail

go 1.21
