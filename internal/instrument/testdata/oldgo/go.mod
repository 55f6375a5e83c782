module example.com/oldgo

go 1.12
