// Package mutateold is written for Go 1.14. The standard library
// declares reflect.Value.Interface's result as "any", a name Go 1.14
// lacks, and go/types prints it so in the mutants.
package mutateold

import "reflect"

// First returns the first value of a list that is not nil.
func First(vs []interface{}) interface{} {
	for _, v := range vs {
		if v != nil {
			return reflect.ValueOf(v).Interface()
		}
	}
	return nil
}
