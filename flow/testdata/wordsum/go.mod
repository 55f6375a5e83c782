module example.com/wordsum

go 1.22
