module example.com/widen

go 1.22
