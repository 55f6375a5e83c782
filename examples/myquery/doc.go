// Package myquery is the seeds' example for whole-program data flow: an
// SQL join written as two nested loops, taken (through the seed) from
// Cheney et al., "Provenance in Databases". The query is
//
//	SELECT e.name, a.phone
//	FROM Agencies a, ExternalTours e
//	WHERE a.name = e.name AND e.type = 'boat'
//
// Query runs it over slices of structs, so a data-flow graph (culprit flow)
// can name individual elements and fields: the first result row comes from
// agencies[0].Phone and tours[2].Name, the second from agencies[1].Phone
// and tours[3].Name. The loop counters and the two conditions are the
// control dependencies of each appended row. It has no defect; the test
// passes.
package myquery
