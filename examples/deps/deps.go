package deps

import (
	"bufio"
	"crypto/md5"
	"encoding/hex"
	"io"
	"strings"
)

// Demo starts from z = x and doubles z while x <= z <= 64, then returns z.
func Demo(x int) int {
	z := x
	for x <= z && z <= 64 {
		z *= 2
	}
	return z
}

// AddTo returns n + m.
func AddTo(n, m int) int {
	n += m
	return n
}

// MulWith returns x * y.
func MulWith(x, y int) int {
	x *= y
	return x
}

// AddThenMultiply returns 1 * (2 + 3), computed through AddTo and MulWith.
func AddThenMultiply() int {
	return MulWith(1, AddTo(2, 3))
}

// Fun1 returns x.
func Fun1(x int) int {
	return x
}

// Fun2 returns Fun1(x).
func Fun2(x int) int {
	return Fun1(x)
}

// SecretDigest is the hex MD5 digest of the password CheckPassword accepts.
const SecretDigest = "59f2da35bcc39525b87932b4cc1f3d68"

// CheckPassword reads one line from r and reports whether its MD5 digest is
// SecretDigest. (MD5 is what the seed uses; a real checker would not.)
func CheckPassword(r io.Reader) bool {
	line, _ := bufio.NewReader(r).ReadString('\n')
	secretPassword := strings.TrimSuffix(line, "\n")
	sum := md5.Sum([]byte(secretPassword))
	passwordDigest := hex.EncodeToString(sum[:])

	if passwordDigest == SecretDigest {
		return true
	} else {
		return false
	}
}

// Max returns the larger of a and b.
func Max(a, b int) int {
	var res int
	if a >= b {
		res = a
	} else if a < b {
		res = b
	}
	return res
}

// Func increments z, which it then ignores, and returns x + y.
func Func(x, y, z int) int {
	z += 1
	_ = z
	return x + y
}
