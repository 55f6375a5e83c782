package spectrum

import (
	"fmt"
	"math"
	"strings"
)

// Metric is a suspiciousness formula: a function of an event's Counts.
// Higher scores are more suspicious. A metric is a value; its fields say
// what it computes and where it comes from.
type Metric struct {
	Name    string // the name culprit rank -metric takes
	Formula string // in ef, ep, nf, np (see Counts); F = ef+nf, P = ep+np
	Source  string // the paper that introduced it for fault localization
	// Zero says what the formula's 0/0 cases are taken to be.
	Zero string
	// Score computes the suspiciousness. It never returns NaN; it may
	// return +Inf (DStar for an event every failing and no passing run
	// had).
	Score func(c Counts) float64
}

// ratio returns a/b, or 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// Tarantula is the suspiciousness of the Tarantula tool: one minus its
// color hue, the failed fraction over the sum of both fractions.
var Tarantula = Metric{
	Name:    "tarantula",
	Formula: "(ef/F) / (ef/F + ep/P)",
	Source:  "Jones, Harrold, Stasko: Visualization of test information to assist fault localization, ICSE 2002",
	Zero:    "a fraction with no runs (F or P = 0) is 0; an event no run had scores 0",
	Score: func(c Counts) float64 {
		f := ratio(float64(c.EF), float64(c.Failed()))
		p := ratio(float64(c.EP), float64(c.Passed()))
		return ratio(f, f+p)
	},
}

// Ochiai is the Ochiai coefficient, applied to fault localization by Abreu
// et al.; usually among the best of the simple metrics.
var Ochiai = Metric{
	Name:    "ochiai",
	Formula: "ef / sqrt(F * (ef+ep))",
	Source:  "Abreu, Zoeteweij, van Gemund: On the accuracy of spectrum-based fault localization, TAICPART 2007",
	Zero:    "0 when F = 0 or the event was never had",
	Score: func(c Counts) float64 {
		return ratio(float64(c.EF), math.Sqrt(float64(c.Failed())*float64(c.EF+c.EP)))
	},
}

// Ochiai2 is the second Ochiai coefficient, which also rewards events
// absent from passing runs.
var Ochiai2 = Metric{
	Name:    "ochiai2",
	Formula: "ef*np / sqrt((ef+ep) * (nf+np) * (ef+np) * (ep+nf))",
	Source:  "Naish, Lee, Ramamohanarao: A model for spectra-based software diagnosis, TOSEM 2011",
	Zero:    "1 when ep = nf = 0 and ef > 0 (every failing run and no passing run had it: the limit); otherwise 0 when the denominator is 0",
	Score: func(c Counts) float64 {
		if c.EP+c.NF == 0 && c.EF > 0 {
			return 1
		}
		d := float64(c.EF+c.EP) * float64(c.NF+c.NP) * float64(c.EF+c.NP) * float64(c.EP+c.NF)
		return ratio(float64(c.EF)*float64(c.NP), math.Sqrt(d))
	},
}

// DStar returns the D* metric with the given exponent (the paper's "*",
// 2 in most studies).
func DStar(star float64) Metric {
	name := "dstar"
	if star != 2 {
		name = fmt.Sprintf("dstar%g", star)
	}
	return Metric{
		Name:    name,
		Formula: fmt.Sprintf("ef^%g / (ep + nf)", star),
		Source:  "Wong, Debroy, Gao, Li: The DStar method for effective software fault localization, IEEE Trans. Reliability 2014",
		Zero:    "+Inf when ep+nf = 0 and ef > 0 (every failing run and no passing run had it: the most suspicious an event can be); 0 when ef = 0",
		Score: func(c Counts) float64 {
			if c.EF == 0 {
				return 0
			}
			num := math.Pow(float64(c.EF), star)
			if c.EP+c.NF == 0 {
				return math.Inf(1)
			}
			return num / float64(c.EP+c.NF)
		},
	}
}

// Jaccard is the Jaccard similarity of the event's runs and the failing runs.
var Jaccard = Metric{
	Name:    "jaccard",
	Formula: "ef / (F + ep)",
	Source:  "Chen, Kiciman, Fratkin, Fox, Brewer: Pinpoint: problem determination in large, dynamic internet services, DSN 2002",
	Zero:    "0 when F+ep = 0",
	Score: func(c Counts) float64 {
		return ratio(float64(c.EF), float64(c.Failed()+c.EP))
	},
}

// Op2 is Naish et al.'s metric, optimal for single faults under their
// model: failing runs count fully, passing runs a little.
var Op2 = Metric{
	Name:    "op2",
	Formula: "ef - ep/(P+1)",
	Source:  "Naish, Lee, Ramamohanarao: A model for spectra-based software diagnosis, TOSEM 2011",
	Zero:    "no division by zero",
	Score: func(c Counts) float64 {
		return float64(c.EF) - float64(c.EP)/float64(c.Passed()+1)
	},
}

// Barinel is the single-fault form of the Barinel diagnosis: the fraction
// of the event's runs that failed.
var Barinel = Metric{
	Name:    "barinel",
	Formula: "1 - ep/(ef+ep)",
	Source:  "Abreu, Zoeteweij, van Gemund: Spectrum-based multiple fault localization, ASE 2009",
	Zero:    "0 for an event no run had; 1 for one only failing runs had",
	Score: func(c Counts) float64 {
		if c.EF+c.EP == 0 {
			return 0
		}
		return 1 - float64(c.EP)/float64(c.EF+c.EP)
	},
}

// Kulczynski2 is the second Kulczynski coefficient: the mean of the
// failing runs' share that had the event and the event's share of failing
// runs.
var Kulczynski2 = Metric{
	Name:    "kulczynski2",
	Formula: "(ef/(ef+nf) + ef/(ef+ep)) / 2",
	Source:  "Naish, Lee, Ramamohanarao: A model for spectra-based software diagnosis, TOSEM 2011",
	Zero:    "a term with a zero denominator is 0",
	Score: func(c Counts) float64 {
		return (ratio(float64(c.EF), float64(c.EF+c.NF)) + ratio(float64(c.EF), float64(c.EF+c.EP))) / 2
	},
}

// Zoltar is the metric of the Zoltar tool: Jaccard with a heavy penalty for
// events that passing runs had while failing runs missed them.
var Zoltar = Metric{
	Name:    "zoltar",
	Formula: "ef / (ef + nf + ep + 10000*nf*ep/ef)",
	Source:  "Gonzalez: Automatic error detection techniques based on dynamic invariants, MSc thesis, TU Delft 2007",
	Zero:    "0 when ef = 0",
	Score: func(c Counts) float64 {
		if c.EF == 0 {
			return 0
		}
		ef := float64(c.EF)
		return ef / (ef + float64(c.NF) + float64(c.EP) + 10000*float64(c.NF)*float64(c.EP)/ef)
	},
}

// Metrics returns every metric, DStar with the exponent star.
func Metrics(star float64) []Metric {
	return []Metric{Ochiai, Tarantula, Ochiai2, DStar(star), Jaccard, Op2, Barinel, Kulczynski2, Zoltar}
}

// MetricByName returns the metric called name ("dstar" with exponent
// star).
func MetricByName(name string, star float64) (Metric, error) {
	var names []string
	for _, m := range Metrics(star) {
		if m.Name == name || (name == "dstar" && strings.HasPrefix(m.Name, "dstar")) {
			return m, nil
		}
		names = append(names, m.Name)
	}
	return Metric{}, fmt.Errorf("unknown metric %q (want one of %s)", name, strings.Join(names, ", "))
}
