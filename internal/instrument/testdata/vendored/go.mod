module example.com/vendored

go 1.15

require example.com/dep v1.0.0
