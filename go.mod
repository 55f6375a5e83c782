module github.com/culprit-go/culprit

go 1.24
