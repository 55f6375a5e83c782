module example.com/hazards

go 1.22
