package broken

func F(x int) int {
	if x > 0 {
		return "positive"
	}
	return x
}
