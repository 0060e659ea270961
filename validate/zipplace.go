package validate

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// zipData is the US ZIP code list: one line per five-digit ZIP of the 50
// states and DC, "ZIP<TAB>STATE<TAB>City", sorted by ZIP. Its source and
// licence are in zipdata/README.md.
//
//go:embed zipdata/zips.tsv.gz
var zipData []byte

// Place is where a ZIP code is: its main city and its state.
type Place struct {
	ZipCode string `json:"zipCode"`
	City    string `json:"city"`
	State   string `json:"state"`
}

// zipTable holds the list compactly: ZIPs as numbers in order, and for
// each the index of its city and state. It is read once, on first use.
type zipTable struct {
	zips   []uint32
	places []uint32 // city index << 8 | state index
	cities []string
	states []string
}

var (
	zipOnce  sync.Once
	zipIndex *zipTable
)

func zips() *zipTable {
	zipOnce.Do(func() { zipIndex = readZips(zipData) })
	return zipIndex
}

// readZips reads the embedded list. The list is part of the program, so a
// line it cannot read is a broken build: it panics, and the tests read it.
func readZips(gz []byte) *zipTable {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		panic("validate: ZIP list: " + err.Error())
	}
	t := &zipTable{}
	cityIdx, stateIdx := map[string]int{}, map[string]int{}
	intern := func(m map[string]int, list *[]string, s string) int {
		i, ok := m[s]
		if !ok {
			i = len(*list)
			m[s] = i
			*list = append(*list, s)
		}
		return i
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		zip, rest, _ := strings.Cut(sc.Text(), "\t")
		state, city, ok := strings.Cut(rest, "\t")
		n, err := strconv.ParseUint(zip, 10, 32)
		if !ok || err != nil || len(zip) != 5 || !State(state) || city == "" {
			panic("validate: ZIP list: bad line " + strconv.Quote(sc.Text()))
		}
		t.zips = append(t.zips, uint32(n))
		t.places = append(t.places, uint32(intern(cityIdx, &t.cities, city))<<8|uint32(intern(stateIdx, &t.states, state)))
	}
	if err := sc.Err(); err != nil {
		panic("validate: ZIP list: " + err.Error())
	}
	return t
}

// ZipPlace answers the city and state of a ZIP code (five digits, or ZIP+4
// by its first five), and false when the list does not have it: a ZIP
// newer than the list, or a military or territory one.
func ZipPlace(zip string) (Place, bool) {
	if !ZipCode(zip) {
		return Place{}, false
	}
	n, _ := strconv.ParseUint(zip[:5], 10, 32)
	t := zips()
	i := sort.Search(len(t.zips), func(i int) bool { return t.zips[i] >= uint32(n) })
	if i == len(t.zips) || t.zips[i] != uint32(n) {
		return Place{}, false
	}
	p := t.places[i]
	return Place{ZipCode: zip[:5], City: t.cities[p>>8], State: t.states[p&0xff]}, true
}
