module example.com/mutateold

go 1.14
