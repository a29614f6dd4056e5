// Command gen writes pomprt/include/fortran/pomp_lib.f90 and
// pomprt/fortran_events.c from internal/constructs's list
// (go generate ./rewrite/fortran).
package main

import (
	"log"
	"os"

	"gopari/rewrite/fortran"
)

func main() {
	if err := os.WriteFile(fortran.ModulePath, []byte(fortran.Module()), 0o666); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(fortran.EventsPath, []byte(fortran.Events()), 0o666); err != nil {
		log.Fatal(err)
	}
}
