module github.com/culprit-go/culprit/examples

go 1.24
