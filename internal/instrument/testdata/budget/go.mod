module example.com/budget

go 1.18
