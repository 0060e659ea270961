package testkit

import (
	"fmt"

	"github.com/chairside/chairside"
)

// Applicant returns an applicant in California with every field a soft-pull
// check asks for, valid for every lender. The sandbox lenders decide from
// the last name: Approve, Decline, Pending, Nooffer, Error, Timeout or
// Existing force that answer; any other name gets the answer of a credit
// profile simulated from the SSN.
func Applicant(lastName, ssn string) chairside.Applicant {
	return chairside.Applicant{
		FirstName: "Maria", LastName: lastName, DateOfBirth: "1980-01-31", SSN: ssn,
		AddressLine1: "1200 Wilshire Blvd", AddressCity: "Los Angeles", AddressState: "CA",
		AddressZipCode: "90017", Email: "maria@example.com", MobilePhone: "3105550100",
		AnnualGrossIncome: Ptr(int64(7_500_000)),
	}
}

// SSN returns a valid-looking SSN for the nth applicant, distinct for every
// n below 49 million (never the 000, 666 or 9xx area, a 00 group or a 0000
// serial).
func SSN(n int) string {
	area := 100 + n%500     // 100–599
	group := 1 + (n/500)%99 // 01–99
	serial := 1 + (n/49500)%9999
	return fmt.Sprintf("%03d%02d%04d", area, group, serial)
}

// Ptr returns a pointer to v, for the optional fields of an applicant.
func Ptr[T any](v T) *T { return &v }
