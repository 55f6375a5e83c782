package middle

// Middle returns the median of x, y and z: the value that is neither the
// smallest nor the largest of the three.
//
// It is deliberately wrong when y < x < z; see the package documentation.
func Middle(x, y, z int) int {
	if y < z {
		if x < y {
			return y
		} else if x < z {
			return y // the defect: should return x
		}
	} else {
		if x > y {
			return y
		} else if x > z {
			return x
		}
	}
	return z
}
