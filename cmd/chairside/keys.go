package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/chairside/chairside/seal"
)

// runKeys runs `chairside keys new`: a fresh set of data keys as one line
// of JSON, for CHAIRSIDE_KEYS where several servers share them
// (deploy/compose.yaml). The output is the secret that opens every
// applicant's data: it goes straight into a secret store, never a log.
func runKeys(args []string, stdout io.Writer) error {
	if len(args) != 1 || args[0] != "new" {
		return fmt.Errorf("usage: chairside keys new")
	}
	data, err := seal.Generate()
	if err != nil {
		return err
	}
	var line bytes.Buffer
	if err := json.Compact(&line, data); err != nil {
		return err
	}
	fmt.Fprintln(stdout, line.String())
	return nil
}
