// Package report renders the results of culprit's analyses, each format
// to an io.Writer: a spectrum ranking as text, as a colored source
// listing, as the seed's event table, as a self-contained HTML page, as
// SARIF 2.1.0 for code scanning and as JSON.
//
// JSON and SARIF are contracts, with their schemas documented in
// docs/rank.md and in the types of this package (JSONReport, sarifLog);
// the human formats (text, listing, table, html) may change.
package report
