package myquery

// An Agency is a row of the Agencies relation.
type Agency struct {
	Name    string
	BasedIn string
	Phone   string
}

// A Tour is a row of the ExternalTours relation.
type Tour struct {
	Name        string
	Destination string
	Type        string
	Price       int
}

// A Row is a row of the query's result.
type Row struct {
	Name  string
	Phone string
}

// Query joins agencies and tours on their names and returns the name and
// phone number for every boat tour, in the order of agencies, then tours.
func Query(agencies []Agency, tours []Tour) []Row {
	var res []Row
	i := 0
	for i < len(agencies) {
		k := 0
		for k < len(tours) {
			ta := agencies[i]
			te := tours[k]
			nameA := ta.Name
			nameE := te.Name
			if nameA == nameE {
				typeE := te.Type
				if typeE == "boat" {
					var t Row
					t.Name = nameE
					phone := ta.Phone
					t.Phone = phone
					res = append(res, t)
				}
			}
			k = k + 1
		}
		i = i + 1
	}
	return res
}
