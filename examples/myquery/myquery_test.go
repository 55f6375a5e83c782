package myquery

import (
	"slices"
	"testing"
)

// The seed's input relations.
var (
	agencies = []Agency{
		{Name: "BayTours", BasedIn: "San Francisco", Phone: "415-1200"},
		{Name: "HarborCruz", BasedIn: "Santa Cruz", Phone: "831-3000"},
	}
	tours = []Tour{
		{Name: "BayTours", Destination: "San Francisco", Type: "cable car", Price: 50},
		{Name: "BayTours", Destination: "Santa Cruz", Type: "bus", Price: 100},
		{Name: "BayTours", Destination: "Santa Cruz", Type: "boat", Price: 250},
		{Name: "HarborCruz", Destination: "Monterey", Type: "boat", Price: 200},
		{Name: "HarborCruz", Destination: "Carmel", Type: "train", Price: 90},
	}
)

// TestQuery runs the join on the seed's data.
func TestQuery(t *testing.T) {
	got := Query(agencies, tours)
	want := []Row{
		{Name: "BayTours", Phone: "415-1200"},
		{Name: "HarborCruz", Phone: "831-3000"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Query() = %v, want %v", got, want)
	}
}
